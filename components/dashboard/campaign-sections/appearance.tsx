"use client";

import { CheckboxField, TextField } from "@/components/ui/field";
import { ColorField } from "../campaign-editor-fields";
import { Section, type CampaignFields } from "./section";

/** How the donate page looks: cover image, video, accent colour, the roll of recent donors. */
export function AppearanceSection({ fields }: { fields: CampaignFields }) {
  const { text, check, values, err, set, blur } = fields;
  return (
    <Section id="cs-look" title="Page and media">
      <TextField {...text("coverImageUrl")} type="url" label="Cover image URL" optional placeholder="https://" />
      <TextField {...text("videoUrl")} type="url" label="Video URL" optional placeholder="https://" />
      <ColorField value={values.color} error={err("color")} onChange={(v) => set("color", v)} onBlur={blur("color")} />
      <CheckboxField {...check("showDonorRoll")} label="Show recent donors on the donate page" hint="First names only, or “Anonymous”." />
    </Section>
  );
}
