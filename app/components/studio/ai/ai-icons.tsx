// Small icons only the AI tab uses (same stroke style as ui/icons).
const Icon = ({ d }: { d: string }) => (
  <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={d} />
  </svg>
);

export const CopyIcon = () => <Icon d="M9 9h11v11H9zM5 15H4V4h11v1" />;
export const ExternalLinkIcon = () => <Icon d="M14 3h7v7M10 14 21 3M19 14v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1h6" />;
