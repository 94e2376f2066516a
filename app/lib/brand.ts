// Names and credits in one place, so a white-label partner changes them here and nowhere else.
export const brand = {
  productName: "Framewise",
  tagline: "Intelligence for Video",
  cameraPartner: "a professional camera maker",
  cameraPartnerParent: "the camera maker's parent company",
  visionPartner: "the open-source vision-model provider",
  visionModel: "Moondream",
  visionWebsite: "https://moondream.ai",
  visionDocs: "https://docs.moondream.ai",
  contactEmail: "hello@framewise.example",
  salesEmail: "sales@framewise.example",
} as const;
