-- A few SKUs to try the service with (embedded database only; the demo seeds its own).
insert into stock (sku, on_hand) values ('sku-1', 100), ('sku-2', 100), ('sku-3', 100);
insert into movement (sku, delta, fence, kind) values ('sku-1', 100, 0, 'opening'), ('sku-2', 100, 0, 'opening'),
    ('sku-3', 100, 0, 'opening');
