/* screen_items.c - the Items screen: sample items as DynamoDB stores them. */
#include "screen.h"

#include "draw.h"

static void items_draw(const screen_env *e, ui_rect r, int *cy, int *cx)
{
    (void)e, (void)cy, (void)cx;
    draw_put(r.y, r.x, r.w, "Items", UI_ROLE_HEADER);
    for (int i = 1; i < r.h; i++)
        draw_put(r.y + i, r.x, r.w, "", UI_ROLE_NORMAL);
}

const screen_ops screen_items = {
    .name = "Items",
    .draw = items_draw,
};
