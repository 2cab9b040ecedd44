declare module 'parse-prometheus-text-format' {
  /** A sample of a counter, gauge or untyped metric. */
  export interface PrometheusSample {
    value: string;
    labels?: Record<string, string>;
  }
  /** A sample of a histogram (or summary): its buckets (quantiles), count and sum. */
  export interface PrometheusDistribution {
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count: string;
    sum: string;
    labels?: Record<string, string>;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Array<PrometheusSample | PrometheusDistribution>;
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
