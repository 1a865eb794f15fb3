import type { StorybookConfig } from '@storybook/react-vite';

// Runs on a closed network: no telemetry, no add-ons that fetch anything.
const config: StorybookConfig = {
  // the shared stories, and each widget kind's story in its own folder (widgets/<kind>/<kind>.stories.tsx)
  stories: ['../stories/**/*.stories.@(ts|tsx)', '../widgets/*/*.stories.@(ts|tsx)'],
  addons: [],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
