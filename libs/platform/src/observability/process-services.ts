/** The services this process runs: one, or several when they share it (scripts/one-process.mjs). */
const servicesOfThisProcess: string[] = [];

export function joinProcess(service: string): void {
  if (!servicesOfThisProcess.includes(service)) servicesOfThisProcess.push(service);
}

/** `billing`, or `billing+dispatch+…` for services sharing the process. */
export function processLabel(): string {
  return servicesOfThisProcess.join('+');
}
