// The one place camera registration tells the live-stream supervisor that a camera's stream must stop now
// (the camera was deleted or its address changed), so no ffmpeg keeps pulling an old address.
// TODO(issue 18 merge): server/cameras/stream/index.ts (the stream helper's module) provides liveStreams();
// the lead wires the call below when merging: `liveStreams().forget(cameraId);`
export function forgetLiveStream(cameraId: string): void {
  void cameraId;
}
