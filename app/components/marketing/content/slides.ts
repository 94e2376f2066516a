// The home page carousel (spec §2 section 2): four scenes of what a camera with vision AI can do.
export interface CarouselSlide {
  image: string;
  alt: string;
  title: string;
  description: string;
}

/** Every picture is drawn at this size, so the frame reserves its space before the image arrives. */
export const SLIDE_SIZE = { width: 1200, height: 750 } as const;

export const CAROUSEL_INTERVAL_MS = 5000;

export const slides: CarouselSlide[] = [
  {
    image: "/marketing/healthcare-monitoring.svg",
    alt: "Camera view of a hospital room: a patient resting in bed is outlined by a detection box, with the status 'No fall detected'.",
    title: "Healthcare Monitoring",
    description: "Watch over patient rooms between rounds and detect falls the moment they happen, with instant SMS or e-mail alerts to staff.",
  },
  {
    image: "/marketing/people-counting.svg",
    alt: "Camera view of a busy lobby: nine people, each outlined by a numbered box, and a live count of 9 people in view.",
    title: "People Counting",
    description: "Count visitors, congregations and crowds anonymously and in real time, from a single camera at the door.",
  },
  {
    image: "/marketing/construction-safety.svg",
    alt: "Camera view of a construction site: two workers in hard hats and vests boxed in green, a third without a hard hat flagged in red.",
    title: "Construction Safety",
    description: "Check every worker for hard hats and high-visibility vests, and flag what's missing before it becomes an incident.",
  },
  {
    image: "/marketing/story-mode.svg",
    alt: "Story mode: a park at sunrise with a cyclist passing a fountain, beside a timeline of AI-written captions for each moment.",
    title: "AI Story Mode",
    description: "Record a session and get it back as a story: AI captions each moment as it happens and keeps the photos that matter.",
  },
];
