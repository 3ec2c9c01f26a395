import { Component, type ReactNode } from 'react';
import { ErrorState } from './query-states.tsx';

interface Props {
  title: string;
  children: ReactNode;
}

/** Keeps a failure in one region of a page from taking the page (and its navigation) down. */
export class RegionErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override render(): ReactNode {
    if (this.state.error !== undefined) {
      return <ErrorState title={this.props.title} error={this.state.error} onRetry={() => this.setState({ error: undefined })} />;
    }
    return this.props.children;
  }
}
