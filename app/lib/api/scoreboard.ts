// The live scoreboard's public addresses, built from the catalogue: the links the studio offers for OBS.
import { api } from "../../schemas/operations";
import { operationUrl } from "./call";

export const scoreboardApi = {
  /** This user's live board as JSON and as the transparent HTML overlay, absolute on `origin`. */
  liveUrls: (userId: string, origin: string) => ({
    json: origin + operationUrl(api.scoreboard.liveJson, { query: { userId } }),
    html: origin + operationUrl(api.scoreboard.liveHtml, { query: { userId } }),
  }),
};
