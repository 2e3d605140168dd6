"use client";

import { useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/money";
import type { FundraiserPageView } from "@/lib/schemas/fundraisers";
import styles from "./account.module.css";

export type ReceivedGift = { id: string; campaignId: string; donorName: string; amount: number; currency: string; message: string | null };

/**
 * The supporter's side of the account page: their fundraiser pages with totals, the share link
 * (copy button and QR code, made on the server), an editor for each (PATCH
 * /api/supporter/fundraisers/:id), and the gifts their pages received with the donors' messages.
 */
export function Fundraisers({
  pages: initial,
  qr,
  gifts,
  currency,
  locale,
}: {
  pages: FundraiserPageView[];
  qr: Record<string, string>;
  gifts: ReceivedGift[];
  currency: string;
  locale: Locale;
}) {
  const t = useTranslations("account.fundraisers");
  const [pages, setPages] = useState(initial);
  const money = (cents: number) => formatMoney(cents, currency, { locale: intlTag(locale) });
  return (
    <section className={styles.card} aria-labelledby="fundraisers-title">
      <h2 id="fundraisers-title">{t("title")}</h2>
      <ul className={styles.list}>
        {pages.map((p) => (
          <li key={p.id} className={styles.item}>
            <FundraiserItem
              page={p}
              qrSvg={qr[p.id]}
              money={money}
              onSaved={(np) => setPages((all) => all.map((x) => (x.id === np.id ? np : x)))}
            />
          </li>
        ))}
      </ul>
      <h3 id="received-title">{t("received")}</h3>
      {gifts.length === 0 ? (
        <p>{t("noGifts")}</p>
      ) : (
        <ul className={styles.list} aria-labelledby="received-title">
          {gifts.map((g) => (
            <li key={g.id} className={styles.item}>
              <div className={styles.itemMain}>
                <p className={styles.itemTitle}>
                  {g.donorName === "Anonymous" ? t("anonymous") : g.donorName} · {money(g.amount)}
                </p>
                {g.message && <p className={styles.itemMeta}>“{g.message}”</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FundraiserItem({
  page,
  qrSvg,
  money,
  onSaved,
}: {
  page: FundraiserPageView;
  qrSvg: string | undefined;
  money: (cents: number) => string;
  onSaved: (p: FundraiserPageView) => void;
}) {
  const t = useTranslations("account.fundraisers");
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState(false);
  const [status, setStatus] = useState<string | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(page.pageUrl);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    const goal = Number(text("goal"));
    const res = await fetch(`/api/supporter/fundraisers/${page.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: text("title"),
        story: text("story") || null,
        goalAmountCents: goal > 0 ? Math.round(goal * 100) : null,
        coverImageUrl: text("coverImageUrl") || null,
        giftEmails: data.get("giftEmails") === "on",
      }),
    });
    if (res.ok) {
      onSaved((await res.json()) as FundraiserPageView);
      setEditing(false);
      setStatus(t("saved"));
    } else {
      const body = (await res.json().catch(() => null)) as { error?: string; details?: { fieldErrors?: Record<string, string[]> } } | null;
      const fields = body?.details?.fieldErrors ? Object.entries(body.details.fieldErrors).map(([k, v]) => `${k}: ${v[0]}`) : [];
      setStatus(fields.length ? fields.join("; ") : (body?.error ?? t("failed")));
    }
  }

  const titleId = `page-${page.id}-title`;
  return (
    <div className={styles.itemMain}>
      <p id={titleId} className={styles.itemTitle}>
        {page.isTeam ? t("team", { title: page.title }) : page.title}
      </p>
      <p className={styles.itemMeta}>
        {page.goalAmountCents
          ? t("raisedOf", { raised: money(page.raisedAmountCents), goal: money(page.goalAmountCents), count: page.donationCount })
          : t("raised", { raised: money(page.raisedAmountCents), count: page.donationCount })}
        {page.moderation === "PENDING_APPROVAL" ? ` · ${t("pending")}` : ""}
      </p>
      <p className={styles.itemMeta}>
        <a href={page.pageUrl} className={styles.link}>
          {page.pageUrl}
        </a>{" "}
        <button type="button" className={styles.secondary} onClick={copy}>
          {copied ? t("copied") : t("copy")}
        </button>
      </p>
      {qrSvg && (
        // The SVG is made on the server by the qrcode library from the page's own URL (no user markup).
        <span className={styles.qr} role="img" aria-label={t("qrAlt", { title: page.title })} dangerouslySetInnerHTML={{ __html: qrSvg }} />
      )}
      {status && (
        <p role="status" className={styles.status}>
          {status}
        </p>
      )}
      {editing ? (
        <form className={styles.form} onSubmit={save}>
          <label className={styles.label}>
            {t("fieldTitle")}
            <input className={styles.input} name="title" defaultValue={page.title} required maxLength={140} />
          </label>
          <label className={styles.label}>
            {t("fieldStory")}
            <textarea className={styles.input} name="story" defaultValue={page.story ?? ""} rows={6} maxLength={20000} />
          </label>
          <label className={styles.label}>
            {t("fieldGoal")}
            <input
              className={styles.input}
              name="goal"
              type="number"
              min={1}
              step={1}
              defaultValue={page.goalAmountCents ? page.goalAmountCents / 100 : ""}
            />
          </label>
          <label className={styles.label}>
            {t("fieldCover")}
            <input className={styles.input} name="coverImageUrl" type="url" defaultValue={page.coverImageUrl ?? ""} />
          </label>
          <label>
            <input type="checkbox" name="giftEmails" defaultChecked={page.giftEmails} /> {t("fieldEmails")}
          </label>
          <button type="submit" className={styles.submit}>
            {t("save")}
          </button>
        </form>
      ) : (
        <button type="button" className={styles.secondary} onClick={() => setEditing(true)}>
          {t("edit", { title: page.title })}
        </button>
      )}
    </div>
  );
}
