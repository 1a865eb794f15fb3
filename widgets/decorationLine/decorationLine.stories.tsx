import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/装饰线',
  component: WidgetStory,
  args: widgetArgs('decorationLine'),
  argTypes: widgetArgTypes('decorationLine'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Double: Story = { args: { lineStyle: 'double', height: 24 } };

export const Dashed: Story = { args: { lineStyle: 'dashed', flow: false } };
