import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/轮播图',
  component: WidgetStory,
  args: widgetArgs('carousel'),
  argTypes: widgetArgTypes('carousel'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 映射字段在数据中不存在时，部件上会显示提示。 */
export const MissingField: Story = {
  args: {
    datasourceProps: {
      datasourceType: 'STATIC',
      dataMapping: [
        { id: '1', prop: 'imgUrl', label: '图片地址', field: 'image' },
        { id: '2', prop: 'imgLink', label: '跳转链接', field: 'link' },
      ],
      dataConfig: { data: [{ url: 'builtin:carousel/slide-1.svg', link: '' }] },
    },
    width: 320,
    height: 160,
  },
};
