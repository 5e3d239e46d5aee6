/** Peak RSS and heap in bytes, sampled every 5 ms from now until stop() (the measured work must yield now and then). */
export function memorySampler() {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 5);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { rss, heap };
    },
  };
}
