// The home page industry tabs (spec §1 table, §2 section 4): what the product does for each trade.
import { brand } from "#app/lib/brand";
import { BroadcastIcon, BuildingIcon, ChurchIcon, FactoryIcon, HeartPulseIcon, MusicIcon, TrophyIcon, type IconComponent } from "../icons";

export interface Industry {
  id: "broadcast" | "worship" | "healthcare" | "manufacturing" | "corporate" | "entertainment" | "sports";
  name: string;
  title: string;
  description: string;
  features: string[];
  /** Shows 'Contact Our Team': these deployments are set up with us rather than self-served. */
  contactRequired: boolean;
  icon: IconComponent;
  /** Tailwind classes for the tab's accent colours (full class names, so Tailwind keeps them). */
  colors: { icon: string; badge: string; check: string };
}

export const DEFAULT_INDUSTRY: Industry["id"] = "broadcast";

export const industries: Industry[] = [
  {
    id: "broadcast",
    name: "Broadcast",
    title: "Camera tuning advice for every shot",
    description: `Keep every camera on a multi-camera production looking its best. ${brand.productName} studies the live frame and gives camera-tuning advice on exposure, white balance, framing and focus, so operators fix problems before they go to air.`,
    features: [
      "AI shot and camera-tuning advice on the live preview",
      "Exposure, white balance and colour checks with LUT grading",
      "Pan, tilt and zoom control for IP cameras",
      "Story-mode captions for logging and highlights",
    ],
    contactRequired: false,
    icon: BroadcastIcon,
    colors: { icon: "bg-sky-400/15 text-sky-300", badge: "text-sky-300", check: "text-sky-300" },
  },
  {
    id: "worship",
    name: "Worship",
    title: "Attendance counting without clickers",
    description:
      "Know how many people joined each service without clickers or sign-in sheets. The camera you already stream with counts attendance automatically and anonymously, and keeps a record service by service.",
    features: [
      "Automatic, anonymous attendance counts",
      "A counted photo for every service in the library",
      "Webhooks into your church-management tools",
      "Works with your existing streaming cameras",
    ],
    contactRequired: false,
    icon: ChurchIcon,
    colors: { icon: "bg-amber-400/15 text-amber-300", badge: "text-amber-300", check: "text-amber-300" },
  },
  {
    id: "healthcare",
    name: "Healthcare",
    title: "Patient-room monitoring and fall detection",
    description:
      "Watch over patients between rounds. Cameras monitor patient rooms, detect falls and alert staff by SMS or e-mail within seconds. For clinical deployments we offer a HIPAA-compliant local version that runs on your own network: contact our team to set it up.",
    features: [
      "Patient-room monitoring around the clock",
      "Fall detection with instant SMS or e-mail alerts",
      "HIPAA-compliant local version, on request",
      "Alerts carry the captured frame and a timestamp",
    ],
    contactRequired: true,
    icon: HeartPulseIcon,
    colors: { icon: "bg-emerald-400/15 text-emerald-300", badge: "text-emerald-300", check: "text-emerald-300" },
  },
  {
    id: "manufacturing",
    name: "Manufacturing",
    title: "Defect detection on the line",
    description:
      "Catch defects the moment they appear. Point a camera at your process, describe what a defect looks like, and get e-mail or SMS alerts with the captured photo. For specialised parts we train custom models on your own samples.",
    features: [
      "Visual defect detection on production lines",
      "E-mail and SMS alerts with the captured frame",
      "Custom model training on your parts",
      "Photo evidence stored with detection metadata",
    ],
    contactRequired: true,
    icon: FactoryIcon,
    colors: { icon: "bg-orange-400/15 text-orange-300", badge: "text-orange-300", check: "text-orange-300" },
  },
  {
    id: "corporate",
    name: "Corporate",
    title: "Anonymous meeting-space analytics",
    description:
      "Understand how meeting rooms and open spaces are really used. Occupancy is counted anonymously, with no faces stored and no one identified, so facilities teams can plan space on facts.",
    features: ["Anonymous occupancy counts per room", "Usage trends for facilities planning", "Webhooks into workplace dashboards", "Nobody is identified or tracked"],
    contactRequired: false,
    icon: BuildingIcon,
    colors: { icon: "bg-violet-400/15 text-violet-300", badge: "text-violet-300", check: "text-violet-300" },
  },
  {
    id: "entertainment",
    name: "Entertainment",
    title: "Event attendance and audience sentiment",
    description:
      "Measure how many came and how the room felt. Count crowds at entrances and on the floor, and read audience sentiment through the show, so producers know what landed.",
    features: [
      "Live attendance counts at doors and on the floor",
      "Audience sentiment through the event",
      "Automatic capture of the big moments",
      "Webhooks and exports for your event reports",
    ],
    contactRequired: false,
    icon: MusicIcon,
    colors: { icon: "bg-pink-400/15 text-pink-300", badge: "text-pink-300", check: "text-pink-300" },
  },
  {
    id: "sports",
    name: "Sports",
    title: "Scoreboard data extraction",
    description:
      "Turn the scoreboard into data. Scores, clock and period are read straight from a camera on the arena scoreboard and sent on to your graphics, statistics or streaming tools.",
    features: ["Scoreboard reading from live video", "Score, clock and period as structured data", "Webhook and workflow-automation output", "Automatic capture of key moments"],
    contactRequired: false,
    icon: TrophyIcon,
    colors: { icon: "bg-lime-400/15 text-lime-300", badge: "text-lime-300", check: "text-lime-300" },
  },
];
