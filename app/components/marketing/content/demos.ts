// The home page's two detection demos (spec §2 sections 5 and 6, §3 demo boxes, §4 timings).
export interface DemoBox {
  id: string;
  label: string;
  /** Position and size in percent of the picture. */
  x: number;
  y: number;
  width: number;
  height: number;
  confidence: number;
}

export interface Demo {
  id: "education" | "wildlife";
  eyebrow: string;
  title: string;
  description: string;
  points: string[];
  image: string;
  alt: string;
  boxes: DemoBox[];
  /** Milliseconds between one box appearing and the next. */
  boxIntervalMs: number;
  caption: string;
}

export const DEMO_IMAGE_SIZE = { width: 1200, height: 800 } as const;
export const DEMO_VISIBILITY_THRESHOLD = 0.4;

export const labDemo: Demo = {
  id: "education",
  eyebrow: "Education & Science",
  title: "Lab documentation that writes itself",
  description:
    "Mount a camera over the bench and let AI recognise the glassware, label it and write up what it sees. When the setup is ready, the photo is captured for the lab notebook without anyone reaching for a phone.",
  points: ["Recognises lab equipment by name", "Captions every step for lab reports", "Captures the photo when the setup is complete"],
  image: "/marketing/lab-bench.svg",
  alt: "A laboratory bench with a beaker of blue solution, an Erlenmeyer flask of green solution and a test tube of red solution in a rack.",
  boxes: [
    { id: "beaker", label: "Beaker", x: 12.5, y: 39.5, width: 21.5, height: 43.5, confidence: 94 },
    { id: "flask", label: "Erlenmeyer Flask", x: 39.5, y: 23, width: 26, height: 60, confidence: 97 },
    { id: "test-tube", label: "Test Tube", x: 75.5, y: 23, width: 8, height: 54, confidence: 91 },
  ],
  boxIntervalMs: 600,
  caption: "A beaker of blue solution, an Erlenmeyer flask and a test tube stand ready for the experiment.",
};

export const wildlifeDemo: Demo = {
  id: "wildlife",
  eyebrow: "Wildlife & Nature",
  title: "Species-specific auto-capture",
  description:
    "Tell the camera which species you are waiting for. It ignores everything else, and the moment a great tit lands it frames the bird, writes the caption and takes the shot.",
  points: ["Waits for the species you name", "No more hours of empty frames", "Caption and detection data with every photo"],
  image: "/marketing/great-tit.svg",
  alt: "A great tit with a black cap, white cheeks and a yellow breast split by a black stripe, perched on a mossy branch.",
  boxes: [{ id: "great-tit", label: "Great Tit", x: 32.5, y: 20, width: 44, height: 56, confidence: 96 }],
  boxIntervalMs: 700,
  caption: "A great tit lands on a mossy branch, its yellow breast bright in the morning light.",
};
