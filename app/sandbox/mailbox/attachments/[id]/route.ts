import { and, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { outbox } from "@/db/schema";
import { isMailboxAvailable } from "@/lib/auth/modes";
import type { EmailMessage } from "@/lib/email/types";
import { emailAttachments } from "@/lib/services/statements/statement-attachment";

const notFound = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

// GET /sandbox/mailbox/attachments/:id: the attachment of an email the sandbox mailbox shows (a
// year-end statement's PDF, rendered as the worker would send it); loopback clients of a local
// sandbox install only, 404 for anyone else.
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!isMailboxAvailable(req.headers)) return notFound();
  const { id } = await params;
  if (!/^\d{1,15}$/.test(id)) return notFound();
  const db = await getDb();
  const [row] = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.id, Number(id)), eq(outbox.kind, "email")));
  if (!row) return notFound();
  const files = await emailAttachments(db, row.payload as unknown as EmailMessage);
  if ("skip" in files || files.attachments.length === 0) return notFound();
  const [file] = files.attachments;
  return new Response(new Uint8Array(file.content), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
    },
  });
}
