// Small inline SVG icons (stroke = currentColor), so no icon font or external asset is needed.
import type { SVGProps } from "react";

function Icon({ d, ...props }: SVGProps<SVGSVGElement> & { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden {...props}>
      <path d={d} />
    </svg>
  );
}

export const FullscreenIcon = () => <Icon d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />;
export const GridIcon = () => <Icon d="M9 3v18M15 3v18M3 9h18M3 15h18" />;
export const LightbulbIcon = () => <Icon d="M9 18h6M10 22h4M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z" />;
export const HelpIcon = () => <Icon d="M9.1 9a3 3 0 1 1 4.6 2.5c-.9.6-1.7 1.3-1.7 2.5M12 17h.01M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z" />;
export const PencilIcon = () => <Icon d="M12 20h9M16.5 3.5a2.1 2.1 0 1 1 3 3L7 19l-4 1 1-4z" />;
export const CheckIcon = () => <Icon d="M20 6 9 17l-5-5" />;
export const TrashIcon = () => <Icon d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" />;
export const DownloadIcon = () => <Icon d="M12 3v12M7 10l5 5 5-5M5 21h14" />;
export const CameraIcon = () => <Icon d="M23 19V8a2 2 0 0 0-2-2h-3l-2-3H8L6 6H3a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h18a2 2 0 0 0 2-2zM12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z" />;
export const PlusIcon = () => <Icon d="M12 5v14M5 12h14" />;
export const ChevronLeftIcon = () => <Icon d="M15 18l-6-6 6-6" />;
export const ChevronRightIcon = () => <Icon d="M9 18l6-6-6-6" />;
export const MenuIcon = () => <Icon d="M3 6h18M3 12h18M3 18h18" />;
export const ImageIcon = () => <Icon d="M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5 10a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM21 15l-5-5L5 21" />;
export const SparklesIcon = () => <Icon d="M12 3l1.9 5.8L20 11l-6.1 2.2L12 19l-1.9-5.8L4 11l6.1-2.2z" />;
export const StopIcon = () => <Icon d="M6 6h12v12H6z" />;
export const JoystickIcon = () => <Icon d="M12 2l3 3h-6zM12 22l-3-3h6zM2 12l3-3v6zM22 12l-3 3V9zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" />;
