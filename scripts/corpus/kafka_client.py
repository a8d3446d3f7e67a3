#!/usr/bin/env python3
"""The client side of kafka.pcap (scripts/capture-messaging.sh): kafka-python produces three
records to topic "orders" (one with a key) and a consumer assigned partition 0
reads them back from offset 0. Bounded: every call has a timeout."""
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

producer = KafkaProducer(bootstrap_servers="127.0.0.1:9092", client_id="dissect-producer", acks=1,
                         request_timeout_ms=5000, max_block_ms=5000, linger_ms=0)
producer.send("orders", key=b"order-1", value=b'{"item": "apple", "qty": 3}').get(timeout=5)
producer.send("orders", value=b"pear").get(timeout=5)
producer.send("orders", value=b"fig").get(timeout=5)
producer.close(timeout=5)

consumer = KafkaConsumer(bootstrap_servers="127.0.0.1:9092", client_id="dissect-consumer", group_id=None,
                         enable_auto_commit=False, request_timeout_ms=5000, fetch_max_wait_ms=200,
                         consumer_timeout_ms=2000)
partition = TopicPartition("orders", 0)
consumer.assign([partition])
consumer.seek(partition, 0)
records = consumer.poll(timeout_ms=2000, max_records=10)
print(sum(len(batch) for batch in records.values()), "records fetched")
consumer.close()
