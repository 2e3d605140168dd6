import type { ReactNode } from "react";

/** Small inline icons, decorative (aria-hidden): the text beside them says the same. */
function Icon({ box, size, children }: { box: 16 | 24; size: number; children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox={`0 0 ${box} ${box}`} width={size} height={size} style={{ flex: "none" }}>
      {children}
    </svg>
  );
}

export function LockIcon({ size = 14 }: { size?: number }) {
  return (
    <Icon box={16} size={size}>
      <rect x="3" y="7" width="10" height="7.5" rx="1.5" fill="currentColor" />
      <path d="M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </Icon>
  );
}

export function CalendarIcon({ size = 18 }: { size?: number }) {
  return (
    <Icon box={24} size={size}>
      <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path d="M3.5 10h17M8 3v4M16 3v4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </Icon>
  );
}

export function PinIcon({ size = 18 }: { size?: number }) {
  return (
    <Icon box={24} size={size}>
      <path d="M12 21s-6.5-6.1-6.5-11a6.5 6.5 0 0 1 13 0c0 4.9-6.5 11-6.5 11z" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <circle cx="12" cy="10" r="2.3" fill="currentColor" />
    </Icon>
  );
}

export function HeartIcon({ size = 18 }: { size?: number }) {
  return (
    <Icon box={24} size={size}>
      <path d="M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.2a4.3 4.3 0 0 1 7.5 2.6C19.5 15.4 12 20 12 20z" fill="currentColor" />
    </Icon>
  );
}

export function SparkIcon({ size = 20 }: { size?: number }) {
  return (
    <Icon box={24} size={size}>
      <path d="M12 2.5l2.3 6.2 6.2 2.3-6.2 2.3L12 19.5l-2.3-6.2L3.5 11l6.2-2.3z" fill="currentColor" />
    </Icon>
  );
}

export function InfoIcon({ size = 22 }: { size?: number }) {
  return (
    <Icon box={24} size={size}>
      <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path d="M12 10.5v6M12 7.2v.3" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </Icon>
  );
}

export function MailIcon({ size = 14 }: { size?: number }) {
  return (
    <Icon box={16} size={size}>
      <rect x="1.8" y="3.5" width="12.4" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M2.5 4.5 8 9l5.5-4.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </Icon>
  );
}
