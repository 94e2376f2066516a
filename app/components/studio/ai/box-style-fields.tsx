// How detection boxes look (colour, thickness, labels, multipliers): one set of settings for Moondream's boxes and
// local detection's tracks, kept with the box detection settings ('Save Settings for Next Time').
import type { LabelSize } from "#app/studio/box-labels";
import { MULTIPLIER, THICKNESS, type LabelMode } from "#app/studio/ai/detection-settings";
import { useAi, useStore } from "../studio-context";
import { ColorField, RangeField, SelectField } from "./detection-controls";

const LABEL_SIZE_OPTIONS = [
  ["small", "Small"],
  ["medium", "Medium"],
  ["large", "Large"],
] as const satisfies ReadonlyArray<readonly [LabelSize, string]>;
const LABEL_MODE_OPTIONS = [
  ["inline", "Inline (always shown)"],
  ["popup", "Popup (on hover or tap)"],
] as const satisfies ReadonlyArray<readonly [LabelMode, string]>;
const multiplier = (v: number) => `${v.toFixed(1)}×`;

export function BoxStyleFields() {
  const { detection } = useAi();
  const box = useStore(detection.store, (s) => s.box);
  return (
    <>
      <ColorField label="Box colour" value={box.boxColor} onChange={(v) => detection.updateBox({ boxColor: v })} />
      <RangeField label="Box thickness" {...THICKNESS} value={box.boxThickness} onChange={(v) => detection.updateBox({ boxThickness: v })} format={(v) => `${v} px`} />
      <SelectField label="Label size" value={box.boxLabelSize} options={LABEL_SIZE_OPTIONS} onChange={(v) => detection.updateBox({ boxLabelSize: v })} />
      <SelectField label="Label mode" value={box.boxLabelMode} options={LABEL_MODE_OPTIONS} onChange={(v) => detection.updateBox({ boxLabelMode: v })} />
      <RangeField
        label="Font size multiplier"
        {...MULTIPLIER}
        value={box.boxFontSizeMultiplier}
        onChange={(v) => detection.updateBox({ boxFontSizeMultiplier: v })}
        format={multiplier}
      />
      <RangeField label="Border multiplier" {...MULTIPLIER} value={box.boxBorderMultiplier} onChange={(v) => detection.updateBox({ boxBorderMultiplier: v })} format={multiplier} />
    </>
  );
}
