import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * The top-level fallback: always German, and free of everything that
 * could have failed (no i18n, no theme).
 */
export class ErrorFallback extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" style={{ fontFamily: 'sans-serif', padding: 32 }}>
        Es ist ein Fehler aufgetreten. Bitte laden Sie die Seite neu.
      </div>
    );
  }
}
