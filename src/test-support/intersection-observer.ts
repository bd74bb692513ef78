/** A stand-in IntersectionObserver (jsdom has none) through which a test says what is in view. */
export class FakeIntersectionObserver {
  static made: FakeIntersectionObserver[] = [];
  readonly observed: Element[] = [];
  disconnected = false;

  constructor(
    private readonly report: (entries: Array<{ isIntersecting: boolean }>) => void,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.made.push(this);
  }

  observe(element: Element): void {
    this.observed.push(element);
  }

  disconnect(): void {
    this.disconnected = true;
  }

  /** Reports to the observers made so far (and not disconnected) whether their elements are in view. */
  static inView(isIntersecting: boolean): void {
    for (const observer of FakeIntersectionObserver.made)
      if (!observer.disconnected) observer.report([{ isIntersecting }]);
  }
}

/**
 * Puts the stand-in on this window (each test file has its own), with no observers made yet;
 * returns the function that says what is in view.
 */
export function installFakeIntersectionObserver(): (isIntersecting: boolean) => void {
  FakeIntersectionObserver.made = [];
  Object.assign(window, { IntersectionObserver: FakeIntersectionObserver });
  return FakeIntersectionObserver.inView;
}
