import type { SystemOverview, TaskStatus } from '@smsq/dashboard-api';
import { useEffect } from 'react';
import { useApi } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { SeriesChart } from '../../components/Chart';
import { EmptyState } from '../../components/EmptyState';
import { Badge, Card, Loading, PageHeader, Stat } from '../../components/ui';
import { formatCredits } from '../../lib/format';

const STATUSES: TaskStatus[] = ['pending', 'claimed', 'sent', 'failed'];
const REFRESH_MS = 15_000;

function minuteLabel(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

export function SystemPage() {
  const system = useApi<SystemOverview>('/admin/system');
  const { reload } = system;
  useEffect(() => {
    const timer = window.setInterval(reload, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [reload]);
  const data = system.data;
  const allReady = data ? data.services.every((s) => s.ready) : false;

  return (
    <>
      <PageHeader
        title="System"
        eyebrow="Admin"
        subtitle="Queue depth, throughput and the health of each service. Refreshes every 15 seconds."
        actions={
          <button type="button" className="btn btn-secondary" onClick={reload} disabled={system.loading}>
            Refresh
          </button>
        }
      />
      <ErrorAlert error={system.error} />
      {system.loading && !data ? <Loading /> : null}
      {data ? (
        <>
          <div className="stats-grid">
            {STATUSES.map((status) => (
              <Stat key={status} label={`Tasks ${status}`} value={formatCredits(data.tasksByStatus[status] ?? 0)} testId={`tasks-${status}`} />
            ))}
          </div>
          <Card title="Sends per minute, last hour">
            <SeriesChart points={data.sentPerMinute.map((p) => ({ label: minuteLabel(p.minute), value: p.sent }))} title="SMS sent per minute over the last 60 minutes" unit="sent" />
          </Card>
          <Card title="Services" actions={data.services.length > 0 ? allReady ? <Badge tone="green">All services ready</Badge> : <Badge tone="red">Attention needed</Badge> : null}>
            {data.services.length === 0 ? (
              <EmptyState title="No services reported" icon="◎">
                The back end did not report any service. Check that the stack is running.
              </EmptyState>
            ) : (
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Service health</caption>
                  <thead>
                    <tr>
                      <th scope="col">Service</th>
                      <th scope="col">Health</th>
                      <th scope="col">Detail</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.services.map((service) => (
                      <tr key={service.name}>
                        <td>
                          <strong>{service.name}</strong>
                        </td>
                        <td>{service.ready ? <Badge tone="green">ready</Badge> : <Badge tone="red">not ready</Badge>}</td>
                        <td className="muted">{service.detail}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        </>
      ) : null}
    </>
  );
}
