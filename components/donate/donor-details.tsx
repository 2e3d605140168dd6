import { FieldError } from "./field-error";
import { Checkbox, TextField } from "./fields";
import { formatCount } from "./format";
import { TEXT_MAX } from "./donate-schema";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

type Text = "firstName" | "lastName" | "email" | "message";

/** Who gives: name and email for the receipt, anonymity, and an optional message. */
export function DonorDetails({ f, organizationName }: { f: DonateFormState; organizationName: string }) {
  const { ids, errorOf, values } = f;
  const { id, errorId } = ids;
  const field = (name: Text) => ({
    id: id(name),
    error: errorOf(name),
    errorId: errorId(name),
    ...f.form.register(name, { onChange: () => f.edited(name) }),
  });
  const messageMax = TEXT_MAX.message;
  const showDonorRoll = f.campaign.showDonorRoll;

  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Your details</legend>
      <div className={styles.row2}>
        <TextField {...field("firstName")} label="First name" autoComplete="given-name" maxLength={TEXT_MAX.name} />
        <TextField {...field("lastName")} label="Last name" autoComplete="family-name" maxLength={TEXT_MAX.name} />
      </div>
      <TextField
        {...field("email")}
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        hint="We'll send your receipt here."
        maxLength={TEXT_MAX.email}
      />
      <Checkbox
        id={id("anonymous")}
        checked={values.anonymous}
        onChange={(v) => f.setValue("anonymous", v)}
        label="Give anonymously"
        hint={
          showDonorRoll
            ? `Your name won't appear on this page; ${organizationName} will still see it for your receipt.`
            : `${organizationName} will still see your name for your receipt.`
        }
      />
      <div className={styles.field}>
        <label className={styles.label} htmlFor={id("message")}>
          Message <span className={styles.optional}>(optional)</span>
        </label>
        <textarea
          id={id("message")}
          className={`${styles.input} ${styles.textarea}`}
          rows={3}
          maxLength={messageMax}
          {...f.form.register("message", { onChange: () => f.edited("message") })}
          {...ids.invalidProps("message", id("message-hint"))}
        />
        <p className={`${styles.hint} ${styles.counterRow}`} id={id("message-hint")}>
          <span>{showDonorRoll && !values.anonymous ? "Shown with your gift on this page." : `Shared with ${organizationName}.`}</span>
          <span className={`${styles.num} ${values.message.length >= messageMax - 50 ? styles.counterNear : ""}`}>
            {formatCount(values.message.length)} / {formatCount(messageMax)}
          </span>
        </p>
        <FieldError id={errorId("message")} text={errorOf("message")} />
      </div>
    </fieldset>
  );
}
