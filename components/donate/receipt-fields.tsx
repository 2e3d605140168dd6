import { useMemo } from "react";
import { countryCodes, countryName } from "@/lib/countries";
import { FieldError } from "./field-error";
import { Checkbox, TextField } from "./fields";
import { TEXT_MAX, asksAddress, offersGiftAid } from "./donate-schema";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

type AddressKey = "address.line1" | "address.line2" | "address.city" | "address.region" | "address.postalCode";
type GiftAidKey = "giftAid.title" | "giftAid.houseNameOrNumber" | "giftAid.postcode";

/**
 * The donor's postal address, when the campaign asks for it (`collectAddress`) or the
 * organization's receipts need it (a CA official receipt prints it): see addressRequired.
 */
export function AddressFields({ f, organizationName }: { f: DonateFormState; organizationName: string }) {
  const { ids, errorOf, t } = f;
  const { id, errorId } = ids;
  const optional = (chunks: React.ReactNode) => <span className={styles.optional}>{chunks}</span>;
  const field = (name: AddressKey) => ({
    id: id(name),
    error: errorOf(name),
    errorId: errorId(name),
    ...f.register(name),
  });
  const countries = useMemo(
    () =>
      countryCodes()
        .map((code) => ({ code, name: countryName(code, f.locale) }))
        .sort((a, b) => a.name.localeCompare(b.name, f.locale)),
    [f.locale],
  );
  if (!asksAddress(f.campaign)) return null;
  const official = f.campaign.receiptProfile === "CA";

  return (
    <fieldset className={styles.fieldset} aria-describedby={id("address-hint")}>
      <legend className={styles.legend}>{t("form.address")}</legend>
      <p className={styles.hint} id={id("address-hint")}>
        {official ? t("form.addressHintReceipt") : t("form.addressHint", { org: organizationName })}
      </p>
      <TextField {...field("address.line1")} label={t("form.line1")} autoComplete="address-line1" maxLength={TEXT_MAX.addressLine} />
      <TextField
        {...field("address.line2")}
        label={t.rich("form.line2", { optional })}
        autoComplete="address-line2"
        maxLength={TEXT_MAX.addressLine}
      />
      <div className={styles.row2}>
        <TextField {...field("address.city")} label={t("form.city")} autoComplete="address-level2" maxLength={TEXT_MAX.city} />
        <TextField
          {...field("address.region")}
          label={t.rich("form.region", { optional })}
          autoComplete="address-level1"
          maxLength={TEXT_MAX.city}
        />
      </div>
      <div className={styles.row2}>
        <TextField
          {...field("address.postalCode")}
          label={t.rich("form.postalCode", { optional })}
          autoComplete="postal-code"
          maxLength={TEXT_MAX.postalCode}
        />
        <div className={styles.field}>
          <label className={styles.label} htmlFor={id("address.country")}>
            {t("form.country")}
          </label>
          <select
            id={id("address.country")}
            className={styles.input}
            autoComplete="country"
            {...f.register("address.country")}
            {...ids.invalidProps("address.country")}
          >
            <option value="">{t("form.chooseCountry")}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError id={errorId("address.country")} text={errorOf("address.country")} />
        </div>
      </div>
    </fieldset>
  );
}

/**
 * Gift Aid, for a UK organization's donors who pay UK tax: HMRC's declaration, ticked, with the
 * home address's house name or number and postcode it needs (the name is the donor's own above).
 */
export function GiftAidFields({ f }: { f: DonateFormState }) {
  const { ids, errorOf, values, t } = f;
  const { id, errorId } = ids;
  const optional = (chunks: React.ReactNode) => <span className={styles.optional}>{chunks}</span>;
  const field = (name: GiftAidKey) => ({
    id: id(name),
    error: errorOf(name),
    errorId: errorId(name),
    ...f.register(name),
  });
  if (!offersGiftAid(f.campaign)) return null;

  return (
    <div className={styles.fieldset}>
      <Checkbox
        id={id("claimGiftAid")}
        name="claimGiftAid"
        checked={values.claimGiftAid}
        onChange={(v) => f.setValue("claimGiftAid", v)}
        label={t("form.giftAid")}
        hint={t("form.giftAidDeclaration")}
        controls={id("gift-aid")}
      />
      <fieldset className={`${styles.fieldset} ${styles.nested}`} id={id("gift-aid")} hidden={!values.claimGiftAid}>
        <legend className="sr-only">{t("form.giftAidAddress")}</legend>
        <p className={styles.hint}>{t("form.giftAidAddressHint")}</p>
        <TextField
          {...field("giftAid.title")}
          label={t.rich("form.giftAidTitle", { optional })}
          autoComplete="honorific-prefix"
          maxLength={TEXT_MAX.title}
        />
        <div className={styles.row2}>
          <TextField
            {...field("giftAid.houseNameOrNumber")}
            label={t("form.giftAidHouse")}
            autoComplete="address-line1"
            maxLength={TEXT_MAX.houseNameOrNumber}
          />
          <TextField
            {...field("giftAid.postcode")}
            label={t("form.giftAidPostcode")}
            autoComplete="postal-code"
            maxLength={TEXT_MAX.postcode}
          />
        </div>
      </fieldset>
    </div>
  );
}
