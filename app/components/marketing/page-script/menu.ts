// The top bar's menu toggle on small screens: opens and closes the menu, Escape closes it and gives focus
// back to the toggle.
import { menuLabel } from "../view-states";
import { one } from "./dom";

export function enhanceMenu(toggle: HTMLButtonElement): void {
  const menu = one(document, `#${toggle.getAttribute("aria-controls")}`);
  const openIcon = one(toggle, "[data-when-open]");
  const closedIcon = one(toggle, "[data-when-closed]");
  const label = one(toggle, ".sr-only");
  let open = false;

  const setOpen = (value: boolean) => {
    open = value;
    toggle.setAttribute("aria-expanded", String(open));
    menu.hidden = !open;
    openIcon.toggleAttribute("hidden", !open);
    closedIcon.toggleAttribute("hidden", open);
    label.textContent = menuLabel(open);
  };

  toggle.addEventListener("click", () => setOpen(!open));
  document.addEventListener("keydown", (event) => {
    if (!open || event.key !== "Escape") return;
    setOpen(false);
    toggle.focus();
  });
  // A chosen link closes the menu, so it is closed when the visitor comes back to this page.
  menu.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("a")) setOpen(false);
  });
}
