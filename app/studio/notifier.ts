// How the engine talks to people: toasts and in-app alert dialogs (the spec's "alerts").
import { toast, type ToastInput } from "../components/ui/toast-store";
import { createStore } from "./store";

export interface AlertMessage {
  id: number;
  title: string;
  message: string;
}

export const alertStore = createStore<{ alert: AlertMessage | null }>({ alert: null });
let nextId = 1;

export interface Notifier {
  toast(input: ToastInput): void;
  alert(message: string, title?: string): void;
}

export const notifier: Notifier = {
  toast,
  alert(message, title = "Notice") {
    alertStore.set({ alert: { id: nextId++, title, message } });
  },
};
