// The site's public origin for canonical URLs, sitemaps and social cards: PUBLIC_URL when the operator set
// it (behind a proxy the request may name an internal host), otherwise the origin the request came to.
import { config } from "../config";

export function publicOrigin(request: Request): string {
  const configured = config().publicUrl;
  return new URL(configured ?? request.url).origin;
}
