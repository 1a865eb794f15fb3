import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/边框',
  component: WidgetStory,
  args: widgetArgs('borderBox'),
  argTypes: widgetArgTypes('borderBox'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Wide: Story = { args: { width: 600, height: 120, cornerSize: 30, borderColor: '#2E5C8A', accentColor: '#FAD337' } };
