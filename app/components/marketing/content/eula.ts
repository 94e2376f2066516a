// The End User License Agreement on /eula: the 18 sections in the order spec §2 gives.
import { brand } from "#app/lib/brand";

export interface EulaSection {
  id: string;
  title: string;
  paragraphs: string[];
  list?: string[];
}

const us = brand.legalName;
const product = brand.productName;

export const eulaSections: EulaSection[] = [
  {
    id: "acceptance",
    title: "Acceptance of This Agreement",
    paragraphs: [
      `This End User License Agreement ("Agreement") is a contract between you and ${us} ("we", "us") for the use of ${product}, including the website, the browser-based studio, the downloadable modules and the related programming interfaces (together, the "Service").`,
      `By creating an account, downloading a module or otherwise using the Service you agree to this Agreement. If you use the Service on behalf of an organisation, you confirm that you may bind that organisation, and "you" then means the organisation too. If you do not agree, do not use the Service.`,
    ],
  },
  {
    id: "license",
    title: "License Grant",
    paragraphs: [
      `Subject to this Agreement, we grant you a limited, non-exclusive, non-transferable, revocable licence to use the Service for testing, prototyping and, under a paid plan, production use of camera-based vision AI. Commercial and educational licences may add terms in an order form; where they conflict with this Agreement, the order form wins.`,
      `You may not copy, resell, sublicense or offer the Service to third parties, or build a competing service from it, unless a written Partner agreement allows it. Downloaded modules may be used inside your organisation on as many devices as your plan permits.`,
    ],
  },
  {
    id: "accounts",
    title: "Accounts",
    paragraphs: [
      `You need an account to use the studio. Keep your password confidential and tell us at once if you suspect someone else has used your account; you are responsible for activity under it. Account details must be accurate, and one person or integration may not share an account with others.`,
      `Free accounts include a fixed number of API calls. When they are used up, continued analysis requires a paid plan; your stored data is preserved in the meantime.`,
    ],
  },
  {
    id: "user-content",
    title: "User Content",
    paragraphs: [
      `Frames, photos, captions, webhooks, settings and other material you create or upload ("User Content") remain yours. You grant us a licence to host, process and transmit User Content only as needed to run the Service for you, including sending frames to the AI provider for analysis.`,
      `You are responsible for having every right and consent your User Content needs, in particular the consent of people who appear in camera images where the law requires it. We may remove User Content that breaks this Agreement or the law.`,
    ],
  },
  {
    id: "ai-accuracy",
    title: "AI Features and Accuracy",
    paragraphs: [
      `Captions, detections, counts, scoreboard readings, alerts and camera advice are produced by a machine-learning model and can be wrong, incomplete or late. They are aids, not facts, and the Service is not a safety system.`,
      `Do not rely on the Service as the only safeguard where a missed or false result could cause injury, loss of life or significant harm, such as patient care, workplace safety or security. Keep qualified people and independent safeguards in charge of those decisions.`,
    ],
  },
  {
    id: "third-party",
    title: "Third-Party Services",
    paragraphs: [
      `The Service relies on third parties, including ${brand.visionPartner} (${brand.visionModel}) for AI analysis, and can send data to services you connect, such as workflow-automation platforms, webhook endpoints, and e-mail or SMS gateways.`,
      `Your use of a third-party service is governed by that provider's terms, and any API key you supply is used only on your behalf. We are not responsible for third-party services, their availability or what they do with data you choose to send them.`,
    ],
  },
  {
    id: "privacy",
    title: "Privacy",
    paragraphs: [
      `We process personal data to provide the Service: account details, usage records, and the images and results you create. Frames are sent to the AI provider only when you start an analysis. We do not sell personal data, and we do not use your images to train models without your permission.`,
      `Cameras can capture people who have not agreed to it. When you point a camera at others you act as the controller of that data and must give notice, obtain consent and follow the privacy law that applies, including healthcare rules such as HIPAA where relevant.`,
    ],
  },
  {
    id: "prohibited-uses",
    title: "Prohibited Uses",
    paragraphs: ["You must not use the Service to:"],
    list: [
      "watch, identify or track people covertly, or where they have a reasonable expectation of privacy, without the consent the law requires",
      "harass, discriminate against or unlawfully profile any person",
      "capture or process images of children or other vulnerable people without proper authority",
      "break the law, or infringe anyone's intellectual property or privacy rights",
      "probe, overload or disrupt the Service, get around its limits or access it by automated means other than the documented interfaces",
      "reverse engineer the Service except where the law expressly allows it",
    ],
  },
  {
    id: "intellectual-property",
    title: "Intellectual Property",
    paragraphs: [
      `The Service, its software, design, documentation and brands belong to ${us} and our licensors and are protected by law. This Agreement grants you no rights in them beyond the licence in section 2.`,
      `Open-source components, including the ${brand.visionModel} model, are used under their own licences, which prevail for those components. If you send us feedback, we may use it without obligation to you.`,
    ],
  },
  {
    id: "warranty",
    title: "Disclaimer of Warranties",
    paragraphs: [
      `${product} is an experimental collaboration, and the Service is provided "as is" and "as available". To the fullest extent the law allows, we disclaim all warranties, express or implied, including merchantability, fitness for a particular purpose, accuracy and non-infringement. We do not promise that the Service will be uninterrupted, error-free or secure, or that results will meet your requirements.`,
    ],
  },
  {
    id: "liability",
    title: "Limitation of Liability",
    paragraphs: [
      `To the fullest extent the law allows, we are not liable for indirect, incidental, special, consequential or punitive damages, or for lost profits, revenue, data or goodwill, arising from the Service, even if we were told they were possible.`,
      `Our total liability for any claim about the Service is limited to the greater of the amount you paid us in the twelve months before the claim and one hundred US dollars. Nothing in this Agreement limits liability that cannot be limited by law, such as for fraud or for death or personal injury caused by negligence.`,
    ],
  },
  {
    id: "indemnification",
    title: "Indemnification",
    paragraphs: [
      `You will defend and indemnify ${us} and our partners against claims, damages and costs (including reasonable legal fees) arising from your User Content, your use of cameras and recordings, your breach of this Agreement, or your violation of law or of the rights of others.`,
    ],
  },
  {
    id: "camera-control",
    title: "Camera and Device Control Responsibility",
    paragraphs: [
      `The Service can move and reconfigure cameras: pan, tilt and zoom, presets, exposure, colour and video settings. You are responsible for the devices you connect, for having authority to control them, and for making sure their movement cannot hurt anyone or damage equipment.`,
      `Keep camera firmware up to date, use strong device credentials, and do not expose devices to the internet without protection. We are not liable for damage to, misuse of or unauthorised access to devices you connect.`,
    ],
  },
  {
    id: "termination",
    title: "Termination",
    paragraphs: [
      `You may stop using the Service and close your account at any time. We may suspend or end your access if you breach this Agreement, if the law requires it, or if we discontinue the Service, with notice where reasonably possible.`,
      `On termination your licence ends. Sections 4 and 8 to 17 continue to apply. We will keep your User Content available to export for a reasonable period unless the law or a breach of this Agreement prevents it.`,
    ],
  },
  {
    id: "changes",
    title: "Changes to This Agreement",
    paragraphs: [
      `We may update this Agreement as the Service develops. The date at the top of this page shows the latest version. For material changes we will give notice in the Service or by e-mail before they take effect; continuing to use the Service afterwards means you accept the changes.`,
    ],
  },
  {
    id: "governing-law",
    title: "Governing Law",
    paragraphs: [
      `This Agreement is governed by the laws of the place where ${us} has its principal place of business, without regard to conflict-of-laws rules, and the courts there have exclusive jurisdiction, except that either party may seek urgent relief in any competent court. Mandatory consumer protections of your country of residence still apply.`,
    ],
  },
  {
    id: "entire-agreement",
    title: "Entire Agreement",
    paragraphs: [
      `This Agreement, together with any order form for a paid plan, is the entire agreement between you and us about the Service and replaces earlier understandings. If a provision is found unenforceable, the rest stays in effect. Failing to enforce a provision is not a waiver of it, and you may not assign this Agreement without our consent.`,
    ],
  },
  {
    id: "contact",
    title: "Contact",
    paragraphs: [`Questions about this Agreement? Write to us at ${brand.contactEmail} and we will get back to you within one business day.`],
  },
];
