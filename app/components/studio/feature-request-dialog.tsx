// Feature Request: title and description, submit enabled only when both have text.
import { useState } from "react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { useStore, useStudio } from "./studio-context";

export function FeatureRequestDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const { featureRequest } = useStudio();
  const pending = useStore(featureRequest.store, (s) => s.pending);
  const ready = title.trim() !== "" && description.trim() !== "";

  const submit = async () => {
    if (!ready || !(await featureRequest.submit(title, description))) return;
    setTitle("");
    setDescription("");
    onOpenChange(false);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Feature Request" description="Tell us what would make the studio better for you.">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="space-y-1.5">
          <label htmlFor="feature-title" className="block text-sm font-medium">
            Title
          </label>
          <input
            id="feature-title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={200}
            className="w-full rounded-md border border-ink-700 bg-ink-950 px-3 py-2 text-sm"
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="feature-description" className="block text-sm font-medium">
            Description
          </label>
          <textarea
            id="feature-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            rows={5}
            maxLength={5000}
            className="w-full rounded-md border border-ink-700 bg-ink-950 px-3 py-2 text-sm"
          />
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={!ready || pending}>
            {pending ? "Submitting..." : "Submit Request"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
