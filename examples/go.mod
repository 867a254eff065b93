module example.com/ringlab-examples

go 1.26.0

require ringlab v0.0.0

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/rabbitmq/amqp091-go v1.16.0 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/urfave/cli/v2 v2.27.7 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
	golang.org/x/sync v0.25.0 // indirect
)

replace ringlab => ../
