"use client";

import { useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import styles from "./start-fundraiser.module.css";

type Team = { id: string; name: string };

/**
 * "Start a fundraiser" and "Join a team" on a peer-to-peer campaign's donate page: a short form
 * (name, email, optional title and goal, a team to start or join), posted to
 * POST /api/public/campaigns/:id/fundraisers; the supporter then confirms by the emailed link.
 */
export function StartFundraiser({
  campaignId,
  teams,
  allowTeams,
  currencySymbol,
}: {
  campaignId: string;
  teams: Team[];
  allowTeams: boolean;
  currencySymbol: string;
}) {
  const t = useTranslations("donate.fundraise");
  const { locale } = useLocale();
  const [mode, setMode] = useState<"solo" | "start" | "join">("solo");
  const [state, setState] = useState<"idle" | "sending" | "sent" | "error">("idle");
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    const goal = Number(text("goal"));
    const body: Record<string, unknown> = {
      email: text("email"),
      firstName: text("firstName"),
      lastName: text("lastName"),
      locale,
      ...(text("title") ? { title: text("title") } : {}),
      ...(goal > 0 ? { goalAmountCents: Math.round(goal * 100) } : {}),
      ...(mode === "start" ? { team: { name: text("teamName") } } : {}),
      ...(mode === "join" ? { teamId: text("teamId") } : {}),
    };
    setState("sending");
    setError(null);
    try {
      const res = await fetch(`/api/public/campaigns/${campaignId}/fundraisers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status === 202) {
        setState("sent");
        return;
      }
      const answer = (await res.json().catch(() => null)) as {
        error?: string;
        details?: { fieldErrors?: Record<string, string[]> };
      } | null;
      const fields = answer?.details?.fieldErrors ? Object.entries(answer.details.fieldErrors).map(([k, v]) => `${k}: ${v[0]}`) : [];
      setError(fields.length ? fields.join("; ") : (answer?.error ?? t("failed")));
      setState("error");
    } catch {
      setError(t("failed"));
      setState("error");
    }
  }

  if (state === "sent") {
    return (
      <p role="status" className={styles.sent}>
        {t("sent")}
      </p>
    );
  }

  return (
    <form
      className={styles.form}
      onSubmit={submit}
      aria-describedby="fundraise-lead"
      // The donate page, without React in the browser, sends it with its script: where, and what it then says.
      data-fundraise={`/api/public/campaigns/${campaignId}/fundraisers`}
      data-locale={locale}
      data-sent={t("sent")}
      data-failed={t("failed")}
      data-sent-class={styles.sent}
    >
      <p id="fundraise-lead" className={styles.lead}>
        {t("lead")}
      </p>
      <div className={styles.row}>
        <label className={styles.field}>
          <span>{t("firstName")}</span>
          <input name="firstName" required maxLength={100} autoComplete="given-name" />
        </label>
        <label className={styles.field}>
          <span>{t("lastName")}</span>
          <input name="lastName" required maxLength={100} autoComplete="family-name" />
        </label>
      </div>
      <label className={styles.field}>
        <span>{t("email")}</span>
        <input name="email" type="email" required maxLength={320} autoComplete="email" />
      </label>
      <label className={styles.field}>
        <span>{t("title")}</span>
        <input name="title" maxLength={140} />
      </label>
      <label className={styles.field}>
        <span>{t("goal", { symbol: currencySymbol })}</span>
        <input name="goal" type="number" min={1} step={1} inputMode="numeric" />
      </label>
      {allowTeams && (
        <fieldset className={styles.teams}>
          <legend>{t("teamLegend")}</legend>
          <label>
            <input type="radio" name="mode" value="solo" checked={mode === "solo"} onChange={() => setMode("solo")} /> {t("solo")}
          </label>
          <label>
            <input type="radio" name="mode" value="start" checked={mode === "start"} onChange={() => setMode("start")} /> {t("startTeam")}
          </label>
          {teams.length > 0 && (
            <label>
              <input type="radio" name="mode" value="join" checked={mode === "join"} onChange={() => setMode("join")} /> {t("joinTeam")}
            </label>
          )}
          {/* Both always in the page, the one not chosen hidden and disabled (so not required). */}
          <label className={styles.field} hidden={mode !== "start"} data-mode="start">
            <span>{t("teamName")}</span>
            <input name="teamName" required maxLength={140} disabled={mode !== "start"} />
          </label>
          {teams.length > 0 && (
            <label className={styles.field} hidden={mode !== "join"} data-mode="join">
              <span>{t("team")}</span>
              <select name="teamId" required disabled={mode !== "join"}>
                {teams.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </fieldset>
      )}
      <p role="alert" className={styles.error} hidden={!error}>
        {error}
      </p>
      <button type="submit" className={styles.submit} disabled={state === "sending"}>
        {t("submit")}
      </button>
    </form>
  );
}
