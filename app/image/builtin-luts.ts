// The seven built-in LUT presets, designed as colour transforms on display-referred (sRGB-encoded)
// values and baked into 17³ .cube texts that the server seeds for every user.
import type { Rgb } from "./types";

export const BUILTIN_LUT_SIZE = 17;

type Transform = (r: number, g: number, b: number) => Rgb;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const luma = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

/** A contrast S-curve that keeps 0, 0.5 and 1 fixed; strength 1 is the identity. */
function sCurve(v: number, strength: number): number {
  const x = clamp01(v);
  const a = x ** strength;
  return a / (a + (1 - x) ** strength);
}

/** Scales chroma around luma (1 = unchanged, 0 = grey). */
function saturate([r, g, b]: Rgb, amount: number): Rgb {
  const y = luma(r, g, b);
  return [y + (r - y) * amount, y + (g - y) * amount, y + (b - y) * amount];
}

/** Rolls values above `knee` smoothly towards 1 instead of clipping them. */
function shoulder(v: number, knee = 0.8): number {
  if (v <= knee) return v;
  const room = 1 - knee;
  return knee + room * Math.tanh((v - knee) / room);
}

/** Adds a colour to the shadows and another to the highlights, weighted by luma. */
function splitTone([r, g, b]: Rgb, shadows: Rgb, highlights: Rgb): Rgb {
  const y = clamp01(luma(r, g, b));
  const ws = (1 - y) ** 2;
  const wh = y ** 2;
  return [r + shadows[0] * ws + highlights[0] * wh, g + shadows[1] * ws + highlights[1] * wh, b + shadows[2] * ws + highlights[2] * wh];
}

const finish = ([r, g, b]: Rgb): Rgb => [clamp01(shoulder(r)), clamp01(shoulder(g)), clamp01(shoulder(b))];

/** Golden hour: a warmer white balance, reds and yellows a little richer, blues calmer. */
const warm: Transform = (r, g, b) => finish(saturate([r ** 0.95 * 1.03, g ** 0.99 * 1.005, b ** 1.06 * 0.92], 1.06));

/** Overcast daylight: a cooler white balance with a faint blue lift in the shadows. */
const cool: Transform = (r, g, b) => {
  const toned = splitTone([r ** 1.07 * 0.95, g ** 1.01, b ** 0.92 * 1.03], [0, 0.01, 0.035], [0, 0, 0.01]);
  return finish(saturate(toned, 0.95));
};

/** Teal and orange: contrast, teal shadows, warm highlights and skin, a matte black and a soft roll-off. */
const cinematic: Transform = (r, g, b) => {
  let rgb: Rgb = [sCurve(r, 1.3), sCurve(g, 1.3), sCurve(b, 1.3)];
  // Warm colours lean orange and cool ones teal: push chroma along the orange-teal axis.
  const warmth = (rgb[0] - rgb[2]) * 0.18;
  rgb = [rgb[0] + warmth * 0.8, rgb[1] + warmth * 0.1, rgb[2] - warmth];
  rgb = splitTone(rgb, [-0.05, 0.02, 0.06], [0.05, 0.012, -0.05]);
  rgb = saturate(rgb, 0.92);
  return finish(rgb.map((v) => 0.03 + v * 0.95) as Rgb);
};

/** Faded print: lifted warm-brown blacks, creamy highlights, muted colours, gentle contrast. */
const vintage: Transform = (r, g, b) => {
  let rgb = saturate([sCurve(r, 1.12), sCurve(g, 1.12), sCurve(b, 1.12)], 0.62);
  rgb = splitTone(rgb, [0.02, 0.01, -0.01], [0.02, 0.01, -0.06]);
  const lift: Rgb = [0.1, 0.08, 0.07];
  const gain: Rgb = [0.95, 0.92, 0.8];
  return finish(rgb.map((v, i) => mix(lift[i]!, gain[i]!, clamp01(v))) as Rgb);
};

/** Black and white with a panchromatic film's channel mix and a little extra contrast. */
const blackAndWhite: Transform = (r, g, b) => {
  const mono = sCurve(0.3 * r + 0.59 * g + 0.11 * b, 1.18);
  return [mono, mono, mono];
};

/** Vibrance: muted colours gain the most saturation, already saturated ones little; a touch of contrast. */
const vibrant: Transform = (r, g, b) => {
  const max = Math.max(r, g, b);
  const chroma = max > 0 ? (max - Math.min(r, g, b)) / max : 0;
  const rgb = saturate([sCurve(r, 1.1), sCurve(g, 1.1), sCurve(b, 1.1)], 1.15 + 0.45 * (1 - chroma));
  return finish(rgb);
};

/** Dark and brooding: lower exposure, stronger contrast, drained colour, teal-green shadows, no pure white. */
const moody: Transform = (r, g, b) => {
  let rgb: Rgb = [sCurve(r ** 1.3, 1.2), sCurve(g ** 1.3, 1.2), sCurve(b ** 1.3, 1.2)];
  rgb = saturate(rgb, 0.68);
  rgb = splitTone(rgb, [-0.02, 0.025, 0.04], [0.02, 0.01, -0.01]);
  return finish(rgb.map((v) => 0.015 + v * 0.9) as Rgb);
};

export const BUILTIN_LOOKS: ReadonlyArray<{ name: string; transform: Transform }> = [
  { name: "Warm", transform: warm },
  { name: "Cool", transform: cool },
  { name: "Cinematic", transform: cinematic },
  { name: "Vintage", transform: vintage },
  { name: "Black & White", transform: blackAndWhite },
  { name: "Vibrant", transform: vibrant },
  { name: "Moody", transform: moody },
];

/** A transform baked into .cube text: red fastest, six decimals (finer than any 8- or 10-bit step). */
export function bakeCube(name: string, transform: Transform, size = BUILTIN_LUT_SIZE): string {
  const lines = [`TITLE "${name}"`, "# Framewise built-in preset", `LUT_3D_SIZE ${size}`, "DOMAIN_MIN 0.0 0.0 0.0", "DOMAIN_MAX 1.0 1.0 1.0"];
  const step = 1 / (size - 1);
  for (let b = 0; b < size; b++) {
    for (let g = 0; g < size; g++) {
      for (let r = 0; r < size; r++) {
        lines.push(
          transform(r * step, g * step, b * step)
            .map((v) => v.toFixed(6))
            .join(" "),
        );
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

export interface BuiltinLut {
  name: string;
  size: typeof BUILTIN_LUT_SIZE;
  lutData: string;
}

export const BUILTIN_LUTS: BuiltinLut[] = BUILTIN_LOOKS.map(({ name, transform }) => ({
  name,
  size: BUILTIN_LUT_SIZE,
  lutData: bakeCube(name, transform),
}));
