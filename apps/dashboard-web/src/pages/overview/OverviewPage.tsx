import type { Overview } from '@smsq/dashboard-api';
import { Link } from 'react-router';
import { useApi } from '../../api/useApi';
import { ErrorAlert } from '../../components/Alert';
import { DailyChart } from '../../components/Chart';
import { EmptyState } from '../../components/EmptyState';
import { SilentPhonesBanner } from '../../components/PhoneLiveness';
import { Card, Loading, PageHeader } from '../../components/ui';
import { sumDays } from '../../lib/chart';
import { CreditStats } from './CreditStats';

export function OverviewPage() {
  const { data, error, loading } = useApi<Overview>('/overview');
  return (
    <>
      <PageHeader title="Overview" subtitle={data ? `${data.clientName} — credits, plan and the last 30 days of sending.` : 'Credits, plan and the last 30 days of sending.'} />
      <ErrorAlert error={error} />
      {loading && !data ? <Loading /> : null}
      {data ? (
        <>
          <SilentPhonesBanner phones={data.silentPhones} timeZone={data.timeZone} />
          <CreditStats plan={data.plan} dailyAllowance={data.dailyAllowance} dailyRemaining={data.dailyRemaining} bonusRemaining={data.bonusRemaining} creditsRemaining={data.creditsRemaining} periodEndsAt={data.periodEndsAt} timeZone={data.timeZone} />
          <Card title="Messages, last 30 days">
            <DailyChart days={data.days} />
            {sumDays(data.days).total === 0 ? (
              <EmptyState title="No messages sent yet" icon="✉" action={<Link className="btn btn-primary" to="/keys">Create an API key</Link>}>
                Create an API key, then send your first SMS with <code>POST /smsapi/create-task</code>. It will show up here and under Tasks.
              </EmptyState>
            ) : null}
          </Card>
        </>
      ) : null}
    </>
  );
}
