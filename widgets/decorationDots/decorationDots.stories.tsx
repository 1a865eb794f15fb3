import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/光点阵',
  component: WidgetStory,
  args: widgetArgs('decorationDots'),
  argTypes: widgetArgTypes('decorationDots'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Block: Story = { args: { width: 160, height: 80, glowColor: '#FAD337', color: 'rgba(250,211,55,0.3)' } };
