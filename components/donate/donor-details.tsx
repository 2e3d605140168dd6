import { FieldError } from "./field-error";
import { Checkbox, TextField } from "./fields";
import { TEXT_MAX } from "./donate-schema";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

type Text = "firstName" | "lastName" | "email" | "message";

/** Who gives: name and email for the receipt, anonymity, and an optional message. */
export function DonorDetails({ f, organizationName }: { f: DonateFormState; organizationName: string }) {
  const { ids, errorOf, values, t } = f;
  const { id, errorId } = ids;
  const field = (name: Text) => ({
    id: id(name),
    error: errorOf(name),
    errorId: errorId(name),
    ...f.register(name),
  });
  const messageMax = TEXT_MAX.message;
  const showDonorRoll = f.campaign.showDonorRoll;

  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{t("form.details")}</legend>
      <div className={styles.row2}>
        <TextField {...field("firstName")} label={t("form.firstName")} autoComplete="given-name" maxLength={TEXT_MAX.name} />
        <TextField {...field("lastName")} label={t("form.lastName")} autoComplete="family-name" maxLength={TEXT_MAX.name} />
      </div>
      <TextField
        {...field("email")}
        label={t("form.email")}
        type="email"
        inputMode="email"
        autoComplete="email"
        hint={t("form.emailHint")}
        maxLength={TEXT_MAX.email}
      />
      <Checkbox
        id={id("emailOptIn")}
        name="emailOptIn"
        checked={values.emailOptIn}
        onChange={(v) => f.setValue("emailOptIn", v)}
        label={t("form.emailOptIn", { org: organizationName })}
        hint={t("form.emailOptInHint")}
      />
      <Checkbox
        id={id("remindIfUnfinished")}
        name="remindIfUnfinished"
        checked={values.remindIfUnfinished}
        onChange={(v) => f.setValue("remindIfUnfinished", v)}
        label={t("form.remindMe")}
        hint={t("form.remindMeHint")}
      />
      <Checkbox
        id={id("anonymous")}
        name="anonymous"
        checked={values.anonymous}
        onChange={(v) => f.setValue("anonymous", v)}
        label={t("form.anonymous")}
        hint={showDonorRoll ? t("form.anonymousHintRoll", { org: organizationName }) : t("form.anonymousHint", { org: organizationName })}
      />
      <div className={styles.field}>
        <label className={styles.label} htmlFor={id("message")}>
          {t.rich("form.message", { optional: (chunks) => <span className={styles.optional}>{chunks}</span> })}
        </label>
        <textarea
          id={id("message")}
          className={`${styles.input} ${styles.textarea}`}
          rows={3}
          maxLength={messageMax}
          {...f.register("message")}
          {...ids.invalidProps("message", id("message-hint"))}
        />
        <p className={`${styles.hint} ${styles.counterRow}`} id={id("message-hint")}>
          <span data-live="messageHint">
            {showDonorRoll && !values.anonymous ? t("form.messageShown") : t("form.messageShared", { org: organizationName })}
          </span>
          <span
            className={`${styles.num} ${values.message.length >= messageMax - 50 ? styles.counterNear : ""}`}
            data-live="counter"
            data-near-class={styles.counterNear}
          >
            {t("form.counter", { count: values.message.length, max: messageMax })}
          </span>
        </p>
        <FieldError id={errorId("message")} text={errorOf("message")} />
      </div>
    </fieldset>
  );
}
