// Time bounds in tests read this process's CPU time, not the wall clock. On the shared 2-core CI machine a
// test can wait for a core ten times longer than it runs (a load average of 19 was seen), while a bound on
// CPU time still tells a refusal "at once" from a hang or a quadratic blow-up. Speed itself lives in the bench.
export function cpuClock(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}
