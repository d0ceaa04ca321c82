/**
 * Bounds the work the local server does at once: at most `running` requests are answered at
 * a time, at most `waiting` more wait their turn in arrival order, and any further request
 * is refused at once (the caller answers 503 with Retry-After). Without it, hundreds of
 * concurrent 1,000-id lists each hold megabytes until the process runs out of memory.
 */
export class Admission {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly running: number, readonly waiting: number) {}

  /**
   * Resolves with the function that frees the slot once the request may run; null when the
   * queue is full. A request whose client goes away while it waits (`abandoned` fires) leaves
   * the queue and resolves with null.
   */
  enter(abandoned: (leave: () => void) => void): Promise<(() => void) | null> {
    if (this.active < this.running) return Promise.resolve(this.slot());
    if (this.queue.length >= this.waiting) return Promise.resolve(null);
    return new Promise((resolve) => {
      const turn = () => resolve(this.slot());
      this.queue.push(turn);
      abandoned(() => {
        const at = this.queue.indexOf(turn);
        if (at < 0) return;
        this.queue.splice(at, 1);
        resolve(null);
      });
    });
  }

  private slot(): () => void {
    this.active++;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.active--;
      this.queue.shift()?.();
    };
  }
}
