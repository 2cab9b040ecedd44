import type { ReactNode } from 'react';

/** A friendly block for an empty list: what it is, why it is empty, what to do next. */
export function EmptyState({ title, children, action, icon = '◎' }: { title: string; children?: ReactNode; action?: ReactNode; icon?: string }) {
  return (
    <div className="empty-state">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-text">{children}</div> : null}
      {action ? <div className="empty-action">{action}</div> : null}
    </div>
  );
}
