// The industry tabs (WAI-ARIA tabs, automatic activation): a click or the arrow keys select a tab, Home and
// End jump to the ends; only the selected tab is in the Tab order and its panel alone is shown.
import { INDUSTRY_TAB } from "../view-states";
import { all, setClasses } from "./dom";

export function enhanceTabs(list: HTMLElement): void {
  const tabs = all(list, '[role="tab"]');
  const panels = tabs.map((tab) => document.getElementById(tab.getAttribute("aria-controls") ?? ""));
  let selected = Math.max(
    0,
    tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true"),
  );

  const select = (index: number) => {
    selected = index;
    tabs.forEach((tab, i) => {
      const on = i === index;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      setClasses(tab, INDUSTRY_TAB, on);
      if (panels[i]) panels[i].hidden = !on;
    });
  };

  tabs.forEach((tab, index) => tab.addEventListener("click", () => select(index)));
  list.addEventListener("keydown", (event) => {
    const last = tabs.length - 1;
    const next: Record<string, number> = {
      ArrowRight: selected === last ? 0 : selected + 1,
      ArrowDown: selected === last ? 0 : selected + 1,
      ArrowLeft: selected === 0 ? last : selected - 1,
      ArrowUp: selected === 0 ? last : selected - 1,
      Home: 0,
      End: last,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
    tabs[target]?.focus();
  });
}
