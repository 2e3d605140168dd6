import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { UnsubscribeReminders } from "@/components/account/unsubscribe-reminders";
import styles from "@/components/account/account.module.css";
import { getTranslations } from "@/lib/i18n/request";
import { loadAccountOrg } from "../../account/data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account");
  return { title: t("reminders.title") };
}

/** GET /o/:orgSlug/reminders/unsubscribe?token=…: where an unfinished-gift reminder's unsubscribe link lands; a button stops them. */
export default async function UnsubscribeRemindersPage({ params, searchParams }: Props) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const t = await getTranslations("account");
  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <section className={styles.card} aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title" className={styles.title}>
          {t("reminders.title")}
        </h1>
        {token ? (
          <>
            <p>{t("reminders.lead", { orgName: org.name })}</p>
            <UnsubscribeReminders token={token} orgName={org.name} />
          </>
        ) : (
          <p role="alert">{t("reminders.invalid")}</p>
        )}
      </section>
    </main>
  );
}
