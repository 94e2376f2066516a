// What the studio shows around the picture that is no camera's or capture's business: the rule-of-thirds
// grid, the last click on the picture (click-to-move reads it), which studio dialog is open, and
// fullscreen for the preview element React hands in. Commands change it; components only read it.
import { createStore } from "./store";

export type StudioDialog = "help" | "feature-request" | null;

export interface ViewState {
  showGrid: boolean;
  /** The last click on the preview, -1…1 on each axis (click-to-move uses it). */
  lastClick: { x: number; y: number; at: number } | null;
  dialog: StudioDialog;
}

export class StudioView {
  readonly store = createStore<ViewState>({ showGrid: false, lastClick: null, dialog: null });
  private fullscreenTarget: HTMLElement | null = null;

  toggleGrid(): void {
    this.store.set((state) => ({ showGrid: !state.showGrid }));
  }

  reportClick(position: { x: number; y: number }): void {
    this.store.set({ lastClick: { ...position, at: Date.now() } });
  }

  openDialog(dialog: StudioDialog): void {
    this.store.set({ dialog });
  }

  /** The element fullscreen shows (the preview box). */
  setFullscreenTarget(element: HTMLElement | null): void {
    this.fullscreenTarget = element;
  }

  toggleFullscreen(): void {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void this.fullscreenTarget?.requestFullscreen?.().catch(() => {});
  }
}
