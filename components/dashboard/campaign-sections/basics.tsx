"use client";

import { SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { slugify } from "@/lib/slug";
import { Section, type CampaignFields } from "./section";

const TYPE_OPTIONS = [
  { value: "DONATION", label: "Donation appeal" },
  { value: "PEER_TO_PEER", label: "Peer-to-peer" },
  { value: "EVENT", label: "Event with tickets" },
  { value: "MEMBERSHIP", label: "Membership (recurring)" },
];

/** Title, address, type (fixed once published), the main campaign a fundraiser page belongs to, description. */
export function BasicsSection(props: {
  fields: CampaignFields;
  mode: "create" | "edit";
  isDraft: boolean;
  /** `{donateBaseUrl}/donate/`: shown before the slug. */
  donatePrefix: string;
  parentOptions: { id: string; title: string }[];
}) {
  const { fields, mode, isDraft, donatePrefix, parentOptions } = props;
  const { text, values, has, set } = fields;
  return (
    <Section id="cs-basics" title="Basics">
      <TextField {...text("title")} label="Title" required maxLength={400} hint="Up to 140 characters. Donors see it first." />
      <TextField
        {...text("slug")}
        label="Address"
        prefix={<span title={donatePrefix}>…/donate/</span>}
        autoCapitalize="none"
        spellCheck={false}
        placeholder={mode === "create" ? slugify(values.title, 80) || "winter-appeal" : undefined}
        onChange={(e) => set("slug", e.target.value.toLowerCase())}
        hint={
          mode === "create"
            ? "Lower-case letters, digits and hyphens. Leave empty to make one from the title."
            : "Changing it breaks links you already shared."
        }
      />
      <div className="form-grid">
        <SelectField
          {...text("type")}
          label="Type"
          options={TYPE_OPTIONS}
          disabled={!isDraft}
          hint={isDraft ? undefined : "The type can only change while the campaign is a draft."}
        />
        {has("parentCampaignId") ? (
          <SelectField
            {...text("parentCampaignId")}
            label="Part of"
            options={[
              { value: "", label: "None: this is a main campaign" },
              ...parentOptions.map((p) => ({ value: p.id, label: p.title })),
            ]}
            hint="A fundraiser's own page belongs to a main peer-to-peer campaign; its gifts count toward it."
          />
        ) : null}
      </div>
      <TextAreaField
        {...text("description")}
        label="Description"
        optional
        rows={6}
        hint={`Plain text; HTML is removed. ${values.description.length.toLocaleString("en-US")} / 20,000 characters.`}
      />
    </Section>
  );
}
