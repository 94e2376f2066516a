// The preview's visual overlays (LUT grade, zebra, histogram), mounted inside the picture's rectangle
// so they line up with every other overlay. Nothing is mounted while all of them are off: the preview
// is then the plain <video>, at no cost.
import { useEffect, useState } from "react";
import { lutActive, overlaysIdle } from "../../image/overlay-settings";
import { PreviewPipeline, type PreviewMedia, type RendererKind } from "../../image/preview-pipeline";
import { useStudio, useStore } from "./studio-context";

export function ImageOverlays({ media }: { media: PreviewMedia | null }) {
  const studio = useStudio();
  const { overlays } = studio;
  const settings = useStore(overlays.store, (s) => s.settings);
  const active = useStore(overlays.store, (s) => s.active);
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  const [pipeline, setPipeline] = useState<PreviewPipeline | null>(null);
  const [kind, setKind] = useState<RendererKind | null>(null);
  const idle = overlaysIdle(settings, active !== null);

  useEffect(() => overlays.start(), [overlays]);

  useEffect(() => {
    if (idle || !host || !media) return;
    const created = new PreviewPipeline(media, overlays.imageCore());
    host.append(created.pictureCanvas, created.zebraCanvas, created.histogramCanvas);
    setPipeline(created);
    setKind(created.kind);
    return () => {
      created.dispose();
      setPipeline(null);
    };
  }, [idle, host, media, overlays]);

  useEffect(() => {
    pipeline?.update({
      lut: lutActive(settings) && active?.id === settings.lutId ? active.lut : null,
      intensity: settings.lutIntensity,
      zebra: settings.zebraEnabled ? { mode: settings.zebraMode, high: settings.zebraHigh, low: settings.zebraLow, opacity: settings.zebraOpacity } : null,
      histogram: settings.histogramEnabled ? { mode: settings.histogramMode, log: settings.histogramLog } : null,
    });
  }, [pipeline, settings, active]);

  if (idle) return null;
  return (
    <div
      ref={setHost}
      className="absolute inset-0"
      data-testid="image-overlays"
      data-renderer={kind ?? undefined}
      data-lut={active && lutActive(settings) ? active.name : undefined}
    />
  );
}
