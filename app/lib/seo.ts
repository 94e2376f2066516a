// Head tags every public page carries: title, description, canonical URL, Open Graph and Twitter cards.
import type { MetaDescriptor } from "react-router";
import { brand } from "./brand";

export const SOCIAL_IMAGE = { path: "/marketing/og-image.png", width: 1200, height: 630 } as const;

export interface PageSeo {
  title: string;
  description: string;
  /** The page's path, e.g. "/pricing". */
  path: string;
  /** The public origin (from the loader), e.g. "https://framewise.example". */
  origin: string | undefined;
}

export function pageMeta({ title, description, path, origin }: PageSeo): MetaDescriptor[] {
  const base = origin ?? "http://localhost";
  const url = new URL(path, base).toString();
  const image = new URL(SOCIAL_IMAGE.path, base).toString();
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand.productName },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: String(SOCIAL_IMAGE.width) },
    { property: "og:image:height", content: String(SOCIAL_IMAGE.height) },
    { property: "og:image:alt", content: `${brand.productName}: ${brand.tagline}` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
}
