// The home page's three steps (spec §2 section 3) and six feature highlights (section 7).
import { CameraIcon, ImagesIcon, PlugIcon, ScanIcon, SlidersIcon, SparklesIcon, WorkflowIcon, ZapIcon, type IconComponent } from "../icons";

export interface Step {
  number: string;
  title: string;
  description: string;
  icon: IconComponent;
}

export const steps: Step[] = [
  {
    number: "01",
    title: "Connect",
    description: "Plug in a webcam, use a photo as a camera source, or drive an IP camera with pan, tilt and zoom. Everything runs in the browser.",
    icon: PlugIcon,
  },
  {
    number: "02",
    title: "Detect",
    description: "Ask for anything in plain words, a hard hat, a beaker, a bird, and watch AI find it live with captions, points and bounding boxes.",
    icon: ScanIcon,
  },
  {
    number: "03",
    title: "Automate",
    description: "Capture photos on detection, fire webhooks, send SMS or e-mail alerts, and hand the results to your workflow-automation tools.",
    icon: ZapIcon,
  },
];

export interface Highlight {
  title: string;
  description: string;
  icon: IconComponent;
}

export const highlights: Highlight[] = [
  {
    title: "Real-time bounding boxes",
    description: "Query for anything: type what you are looking for and see every match boxed on the live preview.",
    icon: ScanIcon,
  },
  {
    title: "Automatic photo capture",
    description: "Choose a target and the camera takes the photo the moment it is detected, at full quality.",
    icon: CameraIcon,
  },
  {
    title: "Photo library with metadata",
    description: "Every capture is kept with its detection results, timestamps and bounding boxes, ready to search and export.",
    icon: ImagesIcon,
  },
  {
    title: "Workflow-automation webhooks",
    description: "Send each detection to your workflow-automation platform or your own endpoint as it happens.",
    icon: WorkflowIcon,
  },
  {
    title: "AI captions (story mode)",
    description: "Record a session and let AI caption it moment by moment into a story you can read back and share.",
    icon: SparklesIcon,
  },
  {
    title: "Professional camera controls",
    description: "Pan, tilt and zoom, exposure, LUT colour grading and video settings, built into the studio.",
    icon: SlidersIcon,
  },
];
