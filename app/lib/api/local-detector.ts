// The browser's calls on the deployment's local detector (typed by the catalogue; see ./call.ts). The upload goes
// through XMLHttpRequest rather than fetch: only it reports an upload's progress, which a 100 MB model needs.
import type { DetectorModel } from "../../schemas/local-detector";
import { api } from "../../schemas/operations";
import { call, operationUrl } from "./call";
import { ApiError } from "./errors";

export const localDetectorApi = {
  get: () => call(api.localDetector.get),
  listModels: () => call(api.localDetector.listModels),
  setActive: (modelId: string | null) => call(api.localDetector.setActive, { body: { modelId } }),
  remove: (id: string) => call(api.localDetector.removeModel, { params: { id } }),
  /** Uploads the form (multipart); `onProgress` gets the fraction sent. A refusal rejects with ApiError, as `call` does. */
  upload(form: FormData, onProgress?: (sent: number) => void): Promise<DetectorModel> {
    return new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", operationUrl(api.localDetector.uploadModel));
      request.withCredentials = true;
      if (onProgress) request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
      request.onload = () => {
        if (request.status === 201) resolve(JSON.parse(request.responseText) as DetectorModel);
        else reject(new ApiError(request.status, request.responseText, request.statusText));
      };
      request.onerror = () => reject(new Error("The upload did not reach the server; check the connection and try again."));
      request.send(form);
    });
  },
};
