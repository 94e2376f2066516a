// The three tiers and the FAQ on /pricing (spec §1, §9): free to try, custom-priced for business and partners.
import { brand } from "#app/lib/brand";
import { FREE_API_CALLS } from "./free-tier";

export { FREE_API_CALLS };

export interface PricingTier {
  name: string;
  price: string;
  period: string;
  description: string;
  features: string[];
  limitations: string[];
  cta: { label: string; to: string };
  highlighted?: boolean;
}

export const tiers: PricingTier[] = [
  {
    name: "Free",
    price: "$0",
    period: "always available",
    description: "Everything you need to test vision AI on your own camera.",
    features: [
      `${FREE_API_CALLS} free API calls for testing`,
      "No credit card required",
      "Live detection, captions and story mode",
      "Automatic photo capture and photo library",
      "Always available, no trial clock",
    ],
    limitations: [`Limited to ${FREE_API_CALLS} API calls`, "Upgrade needed once they are used up (your data is preserved)", "No custom model training or consulting"],
    cta: { label: "Start Free", to: "/signup" },
  },
  {
    name: "Professional",
    price: "Custom",
    period: "contact sales",
    description: "For teams putting vision AI to work in production.",
    features: [
      "Unlimited API calls",
      "Custom model training",
      "One dedicated consulting call",
      "Priority support",
      "Advanced analytics",
      "Custom integrations: workflow automation and webhooks",
      "E-mail and SMS notifications",
      "HIPAA options",
    ],
    limitations: [],
    cta: { label: "Contact Sales", to: "/contact" },
    highlighted: true,
  },
  {
    name: "Partner",
    price: "Custom",
    period: "white label",
    description: `Offer ${brand.productName} to your own customers under your name.`,
    features: ["Unlimited API calls", "White-label product", "Custom branding and domain", "Resale rights", "Revenue sharing"],
    limitations: [],
    cta: { label: "Become a Partner", to: "/contact" },
  },
];

export interface Faq {
  question: string;
  answer: string;
}

export const faqs: Faq[] = [
  {
    question: `What happens when my ${FREE_API_CALLS} free API calls run out?`,
    answer: `You can keep signing in and browsing everything you made, but new AI analysis needs an upgrade to Professional or Partner. Your photos, captures and settings are preserved, so you pick up exactly where you left off.`,
  },
  {
    question: "Do I need a credit card to start?",
    answer: `No. The Free tier is always available and needs no credit card: create an account and your ${FREE_API_CALLS} API calls are ready to use.`,
  },
  {
    question: `Do I need a ${brand.visionModel} API key, and does it cost anything?`,
    answer: `The AI runs on ${brand.visionModel}, the open-source vision model from ${brand.visionPartner}. Its API key is free to get: after sign-up, add it in your account settings. Until you do, you share a key with a free quota of ${FREE_API_CALLS} calls.`,
  },
  {
    question: "How are Professional and Partner priced?",
    answer: `Both include unlimited API calls at a custom price that fits your deployment, your number of cameras and the support you need. Contact sales and we reply within one business day.`,
  },
  {
    question: "Can it be used in hospitals and other regulated settings?",
    answer: `Yes. The Professional tier includes HIPAA options, and for patient-room monitoring we offer a HIPAA-compliant version that runs locally on your network. Contact our team to plan it.`,
  },
];
