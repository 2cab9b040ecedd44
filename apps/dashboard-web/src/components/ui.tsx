import { useEffect, useId, type ReactNode } from 'react';

/** Sets the document title for the page. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · smsq`;
  }, [title]);
}

export function PageHeader({ title, subtitle, eyebrow, actions }: { title: string; subtitle?: ReactNode; eyebrow?: ReactNode; actions?: ReactNode }) {
  usePageTitle(title);
  return (
    <header className="page-header">
      <div>
        {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
        <h1>{title}</h1>
        {subtitle ? <p className="page-subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  );
}

/** A labelled form control: the label names the control; a hint is linked by aria-describedby. */
export function Field({ label, hint, children, className }: { label: string; hint?: ReactNode; className?: string; children: (props: { id: string; 'aria-describedby'?: string }) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': hint ? hintId : undefined })}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Card({ title, children, actions, className, titleId }: { title?: string; children: ReactNode; actions?: ReactNode; className?: string; titleId?: string }) {
  // No aria-labelledby on the section: label queries (getByLabel) should find only form controls.
  const generated = useId();
  const headingId = titleId ?? generated;
  return (
    <section className={`card ${className ?? ''}`}>
      {title || actions ? (
        <div className="card-header">
          {title ? (
            <h2 className="card-title" id={headingId}>
              {title}
            </h2>
          ) : null}
          {actions ? <div className="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

export function Badge({ tone, children }: { tone: 'green' | 'red' | 'amber' | 'blue' | 'gray'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

const STATUS_TONE = { pending: 'amber', claimed: 'blue', sent: 'green', failed: 'red' } as const;

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={(STATUS_TONE as Record<string, 'green' | 'red' | 'amber' | 'blue'>)[status] ?? 'gray'}>{status}</Badge>;
}

export function Stat({ label, value, hint, testId, compact }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string; compact?: boolean }) {
  return (
    <div className="stat">
      <p className="stat-label">{label}</p>
      <p className={compact ? 'stat-value stat-value-compact' : 'stat-value'} data-testid={testId}>
        {value}
      </p>
      {hint ? <p className="stat-hint">{hint}</p> : null}
    </div>
  );
}
