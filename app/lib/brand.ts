// Names and credits in one place, so a white-label partner changes them here and nowhere else.
export const brand = {
  productName: "Framewise",
  tagline: "Intelligence for Video",
  /** The camera partner and its parent company, as they appear mid-sentence. */
  cameraPartner: "a professional camera maker",
  cameraPartnerParent: "the camera maker's parent company",
  /** The footer credit line for the parent company. */
  parentCompanyCredit: "Made in partnership with the camera maker's parent company.",
  visionPartner: "the open-source vision-model provider",
  visionModel: "Moondream",
  visionWebsite: "https://moondream.ai",
  visionDocs: "https://docs.moondream.ai",
  contactEmail: "hello@framewise.example",
  salesEmail: "sales@framewise.example",
  /** The party that grants the licence in the EULA. */
  legalName: "Framewise",
} as const;
