// The browser's calls on feature requests (typed by the catalogue; see ./call.ts).
import { api } from "../../schemas/operations";
import { call } from "./call";

export const featureRequestsApi = {
  create: (title: string, description: string) => call(api.featureRequests.create, { body: { title, description } }),
};
