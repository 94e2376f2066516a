// Unknown /api paths answer problem JSON, not an HTML page.
import { problem } from "#server/http/problem";

const notFound = ({ request }: { request: Request }) => problem(404, `No API route matches ${request.method} ${new URL(request.url).pathname}`);

export const loader = notFound;
export const action = notFound;
