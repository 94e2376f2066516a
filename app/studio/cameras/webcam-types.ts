// A browser video input as the studio lists it: its own module so the webcam opener (webcam.ts) and the saved-webcam
// choice (webcam-choice.ts) both import it without importing each other.
export interface WebcamDevice {
  deviceId: string;
  label: string;
}
