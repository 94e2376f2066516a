// The modules on /downloads (spec §2, §3 download module): one ready to download, three on the way.
export interface DownloadModule {
  id: string;
  name: string;
  description: string;
  status: "available" | "In Development";
  downloadUrl: string | null;
  features: string[];
}

/** The file name the People Counter is saved under. */
export const PEOPLE_COUNTER_FILE = "people-counter.html";

export const downloadModules: DownloadModule[] = [
  {
    id: "people-counter",
    name: "People Counter & Analytics",
    description:
      "A ready-made people counter in a single HTML file. Open it in a browser, point a camera at a doorway or a room, and watch the count and the trend build in real time.",
    status: "available",
    downloadUrl: `/${PEOPLE_COUNTER_FILE}`,
    features: ["Live count of people in view", "Occupancy trend over the session", "Runs in any modern browser, nothing to install", "Uses your own vision API key"],
  },
  {
    id: "defect-detection",
    name: "Defect Detection Module",
    description: "Inspect parts on a production line, flag defects as they pass and alert the team by e-mail or SMS with the captured photo.",
    status: "In Development",
    downloadUrl: null,
    features: ["Describe defects in plain words", "E-mail and SMS alerts", "Photo evidence for every defect"],
  },
  {
    id: "scoreboard",
    name: "Scoreboard Extraction",
    description: "Read score, clock and period from a camera on the scoreboard and send them to graphics and statistics tools as data.",
    status: "In Development",
    downloadUrl: null,
    features: ["Score, clock and period as data", "Webhook output", "Works with any scoreboard camera"],
  },
  {
    id: "sentiment",
    name: "Sentiment Analysis",
    description: "Gauge how an audience feels through an event, moment by moment, for producers, venues and event teams.",
    status: "In Development",
    downloadUrl: null,
    features: ["Audience mood over time", "Highlights of the strongest reactions", "Reports for each event"],
  },
];
